// The program's version: what `digest --version` prints and what a backup records as the program that made it.
export const PROGRAM_VERSION = '0.1.0';
