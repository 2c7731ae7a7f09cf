import { loadConfig } from './config.ts';
import { createLogger } from './logging.ts';
import { RedisBinaryMissingError } from './redis/embedded.ts';
import { startService } from './service.ts';

const config = loadConfig();
const { logger, accessLog, flushSync } = createLogger(config.logLevel);
// Log lines are written once per event-loop turn: whatever is still held goes out before the process ends.
process.on('exit', flushSync);

try {
  const service = await startService(config, logger, accessLog);
  let signals = 0;
  const shutdown = (signal: string) => {
    if (++signals > 1) process.exit(1); // a second Ctrl-C forces the exit
    logger.info({ signal }, 'shutting down');
    service.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
} catch (err) {
  if (err instanceof RedisBinaryMissingError) logger.fatal(err.message);
  else logger.fatal({ err }, 'the user service could not start');
  process.exit(1);
}
