/** The deliberate defects of impl/server.mjs: name → what is wrong. */
export declare const DEFECTS: Record<string, string>;
