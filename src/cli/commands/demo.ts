import type { Command } from 'commander';
import { parseConfig } from '../../config/index.js';
import { SAMPLE_WEEK, sampleConfig, startSampleServer } from '../../sample/sample-week.js';
import { runBuild } from '../build-run.js';
import type { CliContext } from '../context.js';
import { withRuntime } from '../runtime.js';

interface DemoOptions {
  out: string;
  dataDir: string;
  verbose?: boolean;
}

export function register(program: Command, context: CliContext): void {
  program
    .command('demo')
    .description(
      `Build the bundled sample week (${SAMPLE_WEEK}) offline: recorded real feeds served on loopback`,
    )
    .option('--out <dir>', 'output folder', 'out')
    .option('--data-dir <dir>', 'PGlite data folder for the sample (kept apart from ./data)', 'data-sample')
    .option('--verbose', 'more log lines')
    .action(async (options: DemoOptions) => {
      const server = await startSampleServer();
      try {
        const config = parseConfig(sampleConfig(server.origin), 'sample config');
        await withRuntime(
          options,
          context,
          async (runtime) => {
            const outcome = await runBuild(
              runtime,
              {
                week: SAMPLE_WEEK,
                out: options.out,
                ingest: true,
                enrich: false,
                offline: true,
                check: false,
                refresh: false,
              },
              context,
            );
            context.stdout.write(`${outcome.pagePath}\n`);
          },
          { config },
        );
      } finally {
        await server.close();
      }
    });
}
