export declare function newRunFolder(cwd: string): string;
export declare function linkLatest(dir: string): void;
