export declare const REPORT_ROOT: string;
export declare const OPTIONS: ReadonlyArray<{
  flag?: string;
  aliases?: readonly string[];
  env: string;
  value?: string;
  default?: string;
  help: string;
}>;
export declare function setting(env: string): string | undefined;
export declare function splitArgs(text: string): string[];
export declare const PLAYWRIGHT_OPTIONS: { withValue: readonly string[]; alone: readonly string[] };
