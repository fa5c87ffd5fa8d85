export declare const CHROMIUM_CANDIDATES: string[];
export declare function chromiumPath(env?: NodeJS.ProcessEnv): string;
export declare function isExecutable(file: string): boolean;
