/** The hash slot of a key on Redis Cluster (the package ioredis itself uses; it ships no types). */
declare module 'cluster-key-slot' {
  export default function calculateSlot(key: string | Buffer): number;
}
