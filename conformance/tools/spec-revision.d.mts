export declare function specRevision(text: string): string;
