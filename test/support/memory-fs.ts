// An in-memory FileSystem: the port is two methods, so tests can see exactly which bytes a writer produced.
import type { FileSystem } from '../../src/core/ports.js';

export interface MemoryFileSystem extends FileSystem {
  files: Map<string, Buffer>;
  folders: Set<string>;
  text(path: string): string;
}

export function memoryFileSystem(): MemoryFileSystem {
  const files = new Map<string, Buffer>();
  const folders = new Set<string>();
  return {
    files,
    folders,
    async writeFile(path, data) {
      files.set(path, Buffer.from(data));
    },
    async mkdir(path) {
      folders.add(path);
    },
    text(path) {
      const data = files.get(path);
      if (!data) throw new Error(`no file written at ${path}`);
      return data.toString('utf8');
    },
  };
}
