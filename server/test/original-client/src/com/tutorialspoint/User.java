package com.tutorialspoint;

import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlRootElement;

/** The user as the original service's client binds it: JAXB, root element "user". */
@XmlRootElement(name = "user")
public class User {
   private int id;
   private String name;
   private String profession;

   public User() {}

   public int getId() {
      return id;
   }

   @XmlElement
   public void setId(int id) {
      this.id = id;
   }

   public String getName() {
      return name;
   }

   @XmlElement
   public void setName(String name) {
      this.name = name;
   }

   public String getProfession() {
      return profession;
   }

   @XmlElement
   public void setProfession(String profession) {
      this.profession = profession;
   }
}
