package com.tutorialspoint;

import com.sun.jersey.api.client.Client;
import com.sun.jersey.api.client.GenericType;
import com.sun.jersey.api.client.UniformInterfaceException;
import com.sun.jersey.api.client.WebResource;
import com.sun.jersey.api.representation.Form;
import java.util.List;
import javax.ws.rs.core.MediaType;

/**
 * The original tutorial service's own test client (tutorialspoint's UserService "WebServiceTester"),
 * on Jersey 1 (Debian's libjersey1-client-java) instead of Jersey 2: same requests, same JAXB binding
 * of the list and the user, and each write answer read as a String and compared with the expected
 * result text. Only the base URL is an argument. After the original's five cases come the three
 * failure cases, compared the same way with "<result>failure</result>".
 *
 * A Jersey client asking for a String turns a 4xx/5xx answer into UniformInterfaceException before
 * the body is read; such a case is reported as fail with the exception's class and status.
 *
 * Usage: java com.tutorialspoint.WebServiceTester http://host:port
 */
public class WebServiceTester {
   private static final String SUCCESS_RESULT = "<result>success</result>";
   private static final String FAILURE_RESULT = "<result>failure</result>";
   private static final String PASS = "pass";
   private static final String FAIL = "fail";

   private final Client client = Client.create();
   private final WebResource users;

   WebServiceTester(String baseUrl) {
      users = client.resource(baseUrl).path("UserService").path("users");
   }

   public static void main(String[] args) {
      if (args.length != 1) {
         System.err.println("usage: WebServiceTester BASE_URL (e.g. http://127.0.0.1:8080)");
         System.exit(2);
      }
      WebServiceTester tester = new WebServiceTester(args[0]);
      // The original's sequence, in its order.
      tester.testGetAllUsers();
      tester.testGetUser();
      tester.testUpdateUser();
      tester.testAddUser();
      tester.testDeleteUser();
      // The failure cases: id 1 exists (PUT refused), id 2 was just deleted (POST and DELETE refused).
      tester.testAddExistingUser();
      tester.testUpdateUnknownUser();
      tester.testDeleteUnknownUser();
   }

   // Test: Get list of all users. Check that the list is not empty.
   private void testGetAllUsers() {
      String result = FAIL;
      try {
         List<User> list = users.accept(MediaType.APPLICATION_XML).get(new GenericType<List<User>>() {});
         if (!list.isEmpty()) result = PASS;
      } catch (RuntimeException e) {
         result = failure(e);
      }
      report("testGetAllUsers", result);
   }

   // Test: Get user of id 1. Check that it is the sample user.
   private void testGetUser() {
      User sampleUser = new User();
      sampleUser.setId(1);
      String result = FAIL;
      try {
         User user = users.path("1").accept(MediaType.APPLICATION_XML).get(User.class);
         if (sampleUser.getId() == user.getId()) result = PASS;
      } catch (RuntimeException e) {
         result = failure(e);
      }
      report("testGetUser", result);
   }

   // Test: Update user of id 1 (POST). Check that the answer is the success XML.
   private void testUpdateUser() {
      expectAnswer("testUpdateUser", SUCCESS_RESULT, () -> users.accept(MediaType.APPLICATION_XML)
            .type(MediaType.APPLICATION_FORM_URLENCODED_TYPE).post(String.class, form("1", "suresh", "clerk")));
   }

   // Test: Add user of id 2 (PUT). Check that the answer is the success XML.
   private void testAddUser() {
      expectAnswer("testAddUser", SUCCESS_RESULT, () -> users.accept(MediaType.APPLICATION_XML)
            .type(MediaType.APPLICATION_FORM_URLENCODED_TYPE).put(String.class, form("2", "naresh", "clerk")));
   }

   // Test: Delete user of id 2. Check that the answer is the success XML.
   private void testDeleteUser() {
      expectAnswer("testDeleteUser", SUCCESS_RESULT,
            () -> users.path("2").accept(MediaType.APPLICATION_XML).delete(String.class));
   }

   // Test: Add user of id 1 again (PUT of an existing id). Check that the answer is the failure XML.
   private void testAddExistingUser() {
      expectAnswer("testAddExistingUser", FAILURE_RESULT, () -> users.accept(MediaType.APPLICATION_XML)
            .type(MediaType.APPLICATION_FORM_URLENCODED_TYPE).put(String.class, form("1", "mahesh", "teacher")));
   }

   // Test: Update user of id 2, which no longer exists (POST). Check that the answer is the failure XML.
   private void testUpdateUnknownUser() {
      expectAnswer("testUpdateUnknownUser", FAILURE_RESULT, () -> users.accept(MediaType.APPLICATION_XML)
            .type(MediaType.APPLICATION_FORM_URLENCODED_TYPE).post(String.class, form("2", "naresh", "clerk")));
   }

   // Test: Delete user of id 2 again. Check that the answer is the failure XML.
   private void testDeleteUnknownUser() {
      expectAnswer("testDeleteUnknownUser", FAILURE_RESULT,
            () -> users.path("2").accept(MediaType.APPLICATION_XML).delete(String.class));
   }

   private static Form form(String id, String name, String profession) {
      Form form = new Form();
      form.add("id", id);
      form.add("name", name);
      form.add("profession", profession);
      return form;
   }

   private interface Call {
      String send();
   }

   /**
    * Reports pass when the answer, as a String, equals the expected text (as the original compares it). A
    * different answer is written to stderr, so that stdout keeps the original's lines.
    */
   private static void expectAnswer(String name, String expected, Call call) {
      String result;
      try {
         String answer = call.send();
         if (expected.equals(answer)) {
            result = PASS;
         } else {
            result = FAIL;
            System.err.println(name + ": expected " + expected + ", got " + answer);
         }
      } catch (RuntimeException e) {
         result = failure(e);
      }
      report(name, result);
   }

   /** fail, with what the client threw: its class, and the HTTP status when it carries one. */
   private static String failure(RuntimeException e) {
      String status = e instanceof UniformInterfaceException
            ? ", status " + ((UniformInterfaceException) e).getResponse().getStatus()
            : "";
      return FAIL + " (" + e.getClass().getName() + status + ")";
   }

   private static void report(String name, String result) {
      System.out.println("Test case name: " + name + ", Result: " + result);
   }
}
