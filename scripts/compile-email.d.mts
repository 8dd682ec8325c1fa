export function compileEmailFrames(): Promise<Record<string, string>>;
export function emailFramesModule(): Promise<string>;
