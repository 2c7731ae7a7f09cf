import cluster from 'node:cluster';
import { loadConfig } from './config.ts';
import { createLogger } from './logging.ts';
import { runPrimary, runServer } from './processes.ts';
import { EmbeddedRedisStartError } from './redis/embedded.ts';
import { holdYoungGeneration } from './young-generation.ts';

// Memory under load stays bounded whatever flags Node was started with (see young-generation.ts).
holdYoungGeneration();
const config = loadConfig();
const clustered = config.processes > 1;
const { logger, accessLog, flushSync } = createLogger(config.logLevel, { sharedOutput: clustered });
// Log lines are written in batches (logging.ts): whatever is still held goes out before the process ends.
process.on('exit', flushSync);

try {
  if (clustered && cluster.isPrimary) await runPrimary(config, logger);
  else await runServer(config, logger, accessLog);
} catch (err) {
  if (err instanceof EmbeddedRedisStartError) logger.fatal(err.message);
  else logger.fatal({ err }, 'the user service could not start');
  process.exit(1);
}
