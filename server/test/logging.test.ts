import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import { pino } from 'pino';
import { type AccessEntry, accessLineBase, BatchedDestination, formatAccessLine } from '../src/logging.ts';

/** The line pino itself writes for `logger.info(entry, 'request')` at a fixed time. */
function pinoLine(entry: AccessEntry, time: number): string {
  let line = '';
  const logger = pino(
    { name: 'user-service', timestamp: () => `,"time":${time}` },
    {
      write(text: string) {
        line = text;
      },
    },
  );
  logger.info(entry, 'request');
  return line;
}

/** A target that records each write it receives (the destination's only job is when and how it writes). */
function recordingTarget() {
  const writes: string[] = [];
  return { writes, write: (text: string) => writes.push(text), flushSync() {} };
}

describe('logging', () => {
  it('property: the access line is the line pino writes for the same entry, byte for byte', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 60 });
    fc.assert(
      fc.property(
        fc.record({ reqId: text, method: text, url: text, status: fc.nat(999), ms: fc.nat(100_000) }),
        fc.nat(2 ** 45),
        (entry, time) => {
          expect(
            formatAccessLine(
              accessLineBase('user-service'),
              time,
              entry.reqId,
              entry.method,
              entry.url,
              entry.status,
              entry.ms,
            ),
          ).to.equal(pinoLine(entry, time));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes the lines of an interval together, at its end', async () => {
    const target = recordingTarget();
    const destination = new BatchedDestination(target, undefined, 30);
    destination.write('a\n');
    await new Promise((resolve) => setImmediate(resolve));
    destination.write('b\n');
    expect(target.writes).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(target.writes).to.deep.equal(['a\nb\n']);
    destination.write('c\n');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(target.writes).to.deep.equal(['a\nb\n', 'c\n']);
  });

  it('writes a burst of 1024 lines at once, without waiting for the end of the interval', () => {
    const target = recordingTarget();
    const destination = new BatchedDestination(target);
    for (let i = 0; i < 1024; i++) destination.write(`${i}\n`);
    expect(target.writes).to.have.length(1);
    expect(target.writes[0]?.split('\n')).to.have.length(1025);
  });

  it('when processes share the output, cuts a batch into writes of at most 4096 bytes at line ends', () => {
    const target = recordingTarget();
    const destination = new BatchedDestination(target, 4096);
    const lines = Array.from({ length: 100 }, (_, i) => `{"n":${i},"text":"${'é'.repeat(i)}"}\n`);
    for (const line of lines) destination.write(line);
    destination.flush();
    expect(target.writes.length).to.be.above(1);
    for (const write of target.writes) {
      expect(Buffer.byteLength(write)).to.be.at.most(4096);
      expect(write.endsWith('\n')).to.equal(true);
    }
    expect(target.writes.join('')).to.equal(lines.join(''));
  });

  it('a process that logs and exits at once still writes every line (flushed at exit)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usersvc-logging-'));
    const script = path.join(dir, 'exit-now.mts');
    const logging = path.resolve(import.meta.dirname, '../src/logging.ts');
    fs.writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(logging)};
const { logger, accessLog, flushSync } = createLogger('info');
process.on('exit', flushSync);
for (let i = 0; i < 3; i++) accessLog('r' + i, 'GET', '/', 200, 0);
logger.fatal('bye');
process.exit(1);
`,
    );
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      const [code] = await once(child, 'exit');
      expect(code).to.equal(1);
      const lines = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { msg: string; reqId?: string });
      expect(lines.map((line) => line.reqId ?? line.msg)).to.deep.equal(['r0', 'r1', 'r2', 'bye']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
