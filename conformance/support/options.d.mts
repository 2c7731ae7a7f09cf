export declare const OPTIONS: ReadonlyArray<{
  flag?: string;
  env: string;
  value?: string;
  default?: string;
  help: string;
}>;
export declare function setting(env: string): string | undefined;
export declare function splitArgs(text: string): string[];
