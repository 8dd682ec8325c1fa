// Runs one benchmark in this process and prints its figures plus this process's peak RSS as one JSON line.
import { pathToFileURL } from 'node:url';

const [modulePath, exportName] = process.argv.slice(2);
if (!modulePath || !exportName) throw new Error('usage: _child.ts <module> <export>');
const module = (await import(pathToFileURL(modulePath).href)) as Record<
  string,
  () => Promise<Record<string, number | string>>
>;
const run = module[exportName];
if (typeof run !== 'function') throw new Error(`${modulePath} has no export ${exportName}`);
const figures = await run();
const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`\n@@BENCH ${JSON.stringify({ figures, peakRssMb })}\n`);
process.exit(0);
