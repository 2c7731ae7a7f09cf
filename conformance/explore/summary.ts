/** The explorer's result as markdown (explore.md): the seed, the counts, then each defect in full. */
import type { ExploreResult } from './explore.ts';
import { text } from './render.ts';

export function markdown(result: ExploreResult): string {
  const s = result.stats;
  const lines = [
    '# Exploration',
    '',
    `Seed ${result.seed} (\`--seed ${result.seed}\` sends the same operations again): ${s.sequences} sequences, ${s.steps} steps, ${s.restarts} restarts; ${s.rounds} concurrent rounds, ${s.roundOps} operations. ${result.defects.length} defect(s); ${s.setAside} more failures with a signature already reported.`,
    '',
  ];
  for (const d of result.defects) {
    lines.push(
      `## ${d.id}: ${d.title}`,
      '',
      '```text',
      text(d),
      '```',
      '',
      `Replay: \`${d.id}.sh\`${d.svg ? `; timeline: ![${d.id}](${d.id}.svg)` : ''}`,
      '',
      '```sh',
      d.script.trimEnd(),
      '```',
      '',
    );
  }
  if (result.notes.length) lines.push('## Notes', '', ...result.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}
