// Types of consumer-tsc.mjs.
export declare const SERVER_ROOT: string;
export declare function consumerProject(files: Record<string, string>): string;
export declare function runTsc(
  dir: string,
  extra?: readonly string[],
): { code: number | null; output: string; wallMs: number; cpuMs: number };
