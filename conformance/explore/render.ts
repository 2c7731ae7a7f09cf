/**
 * Renderers of the explorer's findings, pure: a defect as text (the numbered exchanges, what the model
 * expected at the failing step), as a shell script of curl lines, and a concurrent witness as an SVG
 * timeline (one lane per client).
 */
import { createdIdValue, observed } from '../model/index.ts';
import { curlLine, shellQuote } from '../support/exchange.ts';
import { POLL_MS } from '../support/removal.ts';
import type { Defect, ShownExchange } from './defect.ts';

const USERS = '/UserService/users';

/** One curl line; the base URL is `$BASE_URL`, so the script runs against any instance; HEAD as client.ts reads it. */
const curlOf = (e: ShownExchange, base: string): string => curlLine(e, { base, headBytes: true });

/**
 * The id a section B create was answered with (`POST /apps/{app}/domains` or `…/workers`, 2xx), if any,
 * as the model reads it (createdIdValue: the one the explorer's later paths carry). A string id only: the
 * script reads it back from the answer as a JSON string; a number stays written out in the later lines.
 */
function createdIdOf(e: ShownExchange): { kind: 'D' | 'W'; id: string } | undefined {
  const m = /\/apps\/[^/]+\/(domains|workers)$/.exec(new URL(e.url).pathname);
  if (!m || e.method !== 'POST' || e.status === undefined || e.status < 200 || e.status > 299)
    return undefined;
  const id = createdIdValue(observed({ status: e.status, contentType: e.contentType, body: e.answer ?? '' }));
  return typeof id === 'string' && id !== '' ? { kind: m[1] === 'domains' ? 'D' : 'W', id } : undefined;
}

/**
 * The sequential script's lines. Section B ids are the implementation's: a create's answer is kept
 * and its id put in a variable (D1, W1, …) that the later paths use, so the script replays against
 * any instance; a wait for a worker's removal (W-AWAIT) reads it until it is no longer served, at most
 * as long as the explorer waited.
 */
function scriptLines(
  exchanges: readonly ShownExchange[],
  base: string,
  numbered = true,
  launched = false,
): string[] {
  const names = new Map<string, string>();
  const counts = { D: 0, W: 0 };
  // In the order the exchanges were sent (a concurrent history is shown in the order of the calls).
  return exchanges.map((e) => {
    let line = curlOf(e, base);
    for (const [id, name] of names) line = line.split(id).join(`'"$${name}"'`);
    const echo = numbered ? `echo '# ${e.n}'` : 'echo';
    const created = createdIdOf(e);
    if (created && !names.has(created.id)) {
      const name = `${created.kind}${++counts[created.kind]}`;
      names.set(created.id, name);
      return `${echo}; R=$(${line}); echo "$R"; ${name}=$(echo "$R" | grep -o '"id" *: *"[^"]*"' | head -n 1 | cut -d '"' -f 4); echo`;
    }
    if (e.fill) {
      // A fill as a loop: one PUT per id, as the explorer sent them (a few at a time there).
      const last = BigInt(e.fill.first) + BigInt(e.fill.count - 1);
      const put = `curl -sS -o /dev/null -w '%{http_code} ' -X PUT "$BASE_URL"${shellQuote(USERS)} -H 'Content-Type: application/x-www-form-urlencoded' --data-binary "id=$i&name=fill-$i&profession=filler"`;
      return `${echo} '(PUT of ${e.fill.count} new users, ids ${e.fill.first} to ${last})'; i=${e.fill.first}; while [ $i -le ${last} ]; do ${put}; i=$((i+1)); done; echo`;
    }
    if (e.awaitMs !== undefined) {
      const status = line.replace(/^curl -sS -i /, `curl -s -o /dev/null -w '%{http_code}' `);
      const tries = Math.max(1, Math.ceil(e.awaitMs / POLL_MS));
      return `${echo} '(read until no longer served, at most ${e.awaitMs} ms)'; i=0; while [ $i -lt ${tries} ]; do case $(${status}) in 2*) sleep ${POLL_MS / 1000}; i=$((i+1));; *) break;; esac; done; ${line}; echo`;
    }
    // The script restarts the implementation it started (`launchLines`), then reads the list; one it did
    // not start, the reader restarts.
    if (e.restart)
      return `# restart the implementation here: stop it, start it again (the same port and data)\n${launched ? 'restart' : 'printf "restart the implementation (the same port and data), then press Enter: "; read _'}\n${echo} '(after the restart)'; ${line}; echo`;
    return `${echo}; ${line}; echo`;
  });
}

/** How the suite started the implementation: its start command as given, and where it ran it from. */
export interface Launch {
  /** The shell command with its {port} and {data} placeholders (CONFORMANCE_START_COMMAND). */
  command: string;
  /** The working directory it was run from. */
  cwd: string;
}

/** How long the script waits for the implementation it started to answer (tenths of a second). */
const START_TRIES = 300;

/**
 * The script's own start of the implementation, as the suite starts one (support/target.ts): the start
 * command with {port} and {data} replaced (and PORT, DATA_DIR set), in the background, read until it
 * answers; `restart` stops it (and its children) and starts it again on the same port and data; the data
 * folder is removed at the end. The instances the suite started are gone when the report is read: a
 * script that restarts the implementation, or replays what a fresh one did, cannot point at them.
 */
function launchLines(launch: Launch): string[] {
  return [
    `START_COMMAND=${shellQuote(launch.command)}`,
    'PORT="${PORT:-8080}"',
    'DATA="$(mktemp -d)"',
    'BASE_URL="http://127.0.0.1:$PORT"',
    'start() {',
    `  ( cd ${shellQuote(launch.cwd)} && PORT="$PORT" DATA_DIR="$DATA" exec sh -c "$(printf '%s' "$START_COMMAND" | sed "s|{port}|$PORT|g; s|{data}|$DATA|g")" ) &`,
    '  PID=$!',
    `  i=0; until curl -s -o /dev/null "$BASE_URL/UserService/users"; do i=$((i+1)); if [ $i -ge ${START_TRIES} ]; then echo "the implementation does not answer on $BASE_URL"; exit 1; fi; sleep 0.1; done`,
    '}',
    // The started shell's children first (a start command that does not hand over with exec), then it.
    'stop() { pkill -TERM -P "$PID" 2>/dev/null; kill -TERM "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; }',
    'restart() { stop; start; }',
    'trap \'stop; rm -rf "$DATA"\' EXIT',
    'start',
  ];
}

/**
 * A script that replays the exchanges in order (sequential), or each client's in parallel and the
 * final reads after them (concurrent: a race may need several runs to show again). With `launch` (the
 * suite started the implementation), the script starts it the same way on PORT (8080 unless given) and a
 * new data folder, and restarts it where the sequence did; without, it runs against BASE_URL (the
 * target's URL unless given), and has no restart (the explorer restarts only instances it starts).
 */
export function script(
  d: Pick<Defect, 'id' | 'title' | 'seed' | 'phase' | 'exchanges'>,
  base: string,
  where: string,
  launch?: Launch,
): string {
  const restarts = d.exchanges.some((e) => e.restart);
  const head = [
    '#!/bin/sh',
    `# user-service-conformance explore --seed ${d.seed}: ${d.id}, ${d.title}`,
    ...(launch
      ? [
          `# Starts the implementation as the suite did, and replays on it (the replay needs ${where}): its start command below, run from ${launch.cwd},`,
          `# {port} replaced by PORT, {data} by a new empty folder${restarts ? '; restarted, with the same port and data, where the sequence restarts it' : ''}. PORT=8081 sh this-script to use another port.`,
          ...launchLines(launch),
        ]
      : [
          `# Run against ${where}: BASE_URL=http://127.0.0.1:PORT sh this-script`,
          `BASE_URL="\${BASE_URL:-${base}}"`,
        ]),
  ];
  if (d.phase === 'sequential')
    return `${[...head, ...scriptLines(d.exchanges, base, true, launch !== undefined)].join('\n')}\n`;
  // The same lines (a create's id kept in a variable the later paths use), placed in lanes below.
  const lines = scriptLines(d.exchanges, base, false);
  const lineOf = new Map(d.exchanges.map((e, i) => [e, lines[i] as string]));
  const curl = (e: ShownExchange) => (lineOf.get(e) ?? `${curlOf(e, base)}; echo`).replace(/^echo; /, '');
  const lanes = new Map<number, ShownExchange[]>();
  // The writes before the round are sent once, before the clients start: not again in a lane.
  for (const e of d.exchanges.filter((e) => !e.after && !e.before))
    lanes.set(e.client ?? 0, [...(lanes.get(e.client ?? 0) ?? []), e]);
  const out = [...head, '# before the round', ...d.exchanges.filter((e) => e.before).map(curl)];
  out.push('# every client at once (a race: run it a few times to see it again)');
  for (const [client, list] of [...lanes].sort(([a], [b]) => a - b))
    out.push(`( ${list.map(curl).join('; ')} ) > client-${client}.out 2>&1 &`);
  out.push('wait', '# the reads after the race');
  for (const e of d.exchanges.filter((e) => e.after)) out.push(curl(e));
  return `${out.join('\n')}\n`;
}

const answerLine = (e: ShownExchange) =>
  e.status === undefined
    ? '(no answer)'
    : `${e.status} [${e.contentType ?? 'no Content-Type'}] ${e.answer?.replace(/\n/g, '\\n') ?? ''}`;

/** The defect as the CLI prints it and the rule's message carries it. */
export function text(d: Defect): string {
  const lines = [
    `${d.id} ${d.title}${d.level === 'SHOULD' ? ' (a SHOULD: a warning)' : ''}`,
    `  seed ${d.seed} (${d.phase}), found after ${(d.foundAfterMs / 1000).toFixed(1)} s; ${d.confirmed}${d.shrunk ? `; shrunk from ${d.shrunk.from} to ${d.shrunk.to} steps in ${d.shrunk.replays} replays${d.shrunk.minimal ? ' (no single step can go)' : ' (the budget ran out: a step may still play no part)'}` : ''}`,
    `  ${d.message}`,
  ];
  for (const e of d.exchanges) {
    const who = e.after
      ? ' after the round'
      : e.before
        ? ' before the round'
        : e.client === undefined
          ? ''
          : ` client ${e.client}`;
    const when =
      d.phase === 'concurrent'
        ? ` [${e.call.toFixed(0)}–${Number.isFinite(e.ret) ? e.ret.toFixed(0) : '∞'} ms]`
        : '';
    if (e.fill)
      lines.push(
        `  ${String(e.n).padStart(2)}. (${e.fill.count} PUTs of new users, ids ${e.fill.first} on, a few at a time; shown: one of them)`,
      );
    lines.push(
      `  ${String(e.n).padStart(2)}.${who}${when}${e.restart ? ' (the implementation restarted, then)' : ''} ${e.method} ${e.url}${e.body !== undefined ? ` ${e.body.length > 200 ? `${e.body.slice(0, 200)}…` : e.body}` : ''}`,
    );
    lines.push(
      `      → ${e.awaitMs !== undefined ? `(read until no longer served, at most ${e.awaitMs} ms; the last read) ` : ''}${e.relaxed ? '(answer set aside: may take effect any time after its call) ' : ''}${answerLine(e)}`,
    );
    if (e.n === d.failingStep) lines.push(`      ✗ the model expected: ${d.expected}`);
  }
  if (d.phase === 'concurrent' && d.expected)
    lines.push(`  the model expected at the stuck step: ${d.expected}`);
  // Not part of the minimal history: listed after it, for what they may have overwritten.
  if (d.overlapping?.length)
    lines.push(
      '  writes of other ids that overlapped it and answered success (not part of the minimal history):',
      ...d.overlapping.map(
        (e) =>
          `      client ${e.client} [${e.call.toFixed(0)}–${e.ret.toFixed(0)} ms] ${e.method} ${e.url}${e.body === undefined ? '' : ` ${e.body}`} → ${answerLine(e)}`,
      ),
    );
  return lines.join('\n');
}

const escapeXml = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Who sent an exchange of a race, as the timeline's lanes say it. */
const laneName = (e: ShownExchange): string =>
  e.before ? 'before' : e.after ? 'after' : e.client === undefined ? '' : `client ${e.client}`;

/**
 * The witness as a timeline: one lane per client (the writes before the race and the reads after it
 * lanes of their own), one row per exchange in it, a bar from its call to its return (dashed and open
 * to the right: no answer, or its answer set aside), labelled with its number (the order of the calls),
 * its request and its answer. A row each, so that no two labels overlap however the calls interleave.
 */
export function timeline(exchanges: readonly ShownExchange[]): string {
  const lanes = [...new Set(exchanges.map(laneName))].sort((a, b) => {
    const rank = (l: string) => (l === 'before' ? -1 : l === 'after' ? 1 : 0);
    return rank(a) - rank(b) || Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, ''));
  });
  const start = Math.min(...exchanges.map((e) => e.call));
  const finite = exchanges.flatMap((e) => (Number.isFinite(e.ret) ? [e.ret] : [e.call]));
  const end = Math.max(...finite, start + 1);
  const width = 1200;
  const left = 80;
  const barsRight = 560;
  const row = 20;
  const gap = 8;
  const x = (t: number) => left + ((t - start) / (end - start)) * (barsRight - left);
  const out: string[] = [];
  let y = 10;
  for (const lane of lanes) {
    const inLane = exchanges.filter((e) => laneName(e) === lane).sort((a, b) => a.call - b.call);
    out.push(
      `<line x1="0" x2="${width}" y1="${y - gap / 2}" y2="${y - gap / 2}" stroke="#ddd"/><text x="6" y="${y + 13}" font-size="12" font-weight="bold">${escapeXml(lane)}</text>`,
    );
    for (const e of inLane) {
      const open = !Number.isFinite(e.ret) || e.relaxed;
      const x1 = x(e.call);
      const x2 = open ? barsRight + 10 : Math.max(x(e.ret), x1 + 4);
      const path = new URL(e.url).pathname.replace('/UserService/users', '…');
      const label = `${e.n}. ${e.method} ${path}${e.body ? ` ${decodeURIComponent(e.body.replace(/\+/g, ' ')).slice(0, 50)}` : ''} → ${e.status ?? 'no answer'} ${(e.answer ?? '').replace(/<\/?result>/g, '').slice(0, 40)}`;
      out.push(
        `<rect x="${x1.toFixed(1)}" y="${y + 2}" width="${(x2 - x1).toFixed(1)}" height="12" rx="3" fill="${open ? '#eee' : '#cfe3ff'}" stroke="#36c"${open ? ' stroke-dasharray="4 3"' : ''}/><text x="${barsRight + 20}" y="${y + 12}" font-size="11">${escapeXml(label)}</text>`,
      );
      y += row;
    }
    y += gap;
  }
  const height = y + 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace"><rect width="100%" height="100%" fill="white"/>${out.join('')}<text x="${left}" y="${height - 6}" font-size="10">${(end - start).toFixed(0)} ms from the first call to the last answer; a bar from the call to the answer; dashed: no answer, or its answer set aside; grey: a write of another id</text></svg>`;
}
