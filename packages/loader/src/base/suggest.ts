// Names the closest known word for a misspelt one (a config key, a tool name): "did you mean `plugins`?".
import { createRequire } from 'node:module';
import type * as Levenshtein from 'fastest-levenshtein';

let levenshtein: typeof Levenshtein | undefined;

/** The edit distance; its package is loaded on the first suggestion asked for (a mistake asks, a start does not). */
function distance(a: string, b: string): number {
  levenshtein ??= createRequire(import.meta.url)('fastest-levenshtein') as typeof Levenshtein;
  return levenshtein.distance(a, b);
}

/** Whether one word is the other with a `_`/`-` suffix (`redis_url` for `redis`, `working` for `working_dir`). */
function isLongerForm(word: string, candidate: string): boolean {
  const [shorter, longer] = word.length < candidate.length ? [word, candidate] : [candidate, word];
  return shorter.length >= 3 && /^[_-]/.test(longer.slice(shorter.length)) && longer.startsWith(shorter);
}

/**
 * The known word nearest to `word`, if it is near enough to be a likely typo or a longer form of it. A word one
 * letter away (`plugin` for `plugins`) wins over a longer form (`plugin_log_limit`).
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const oneOff =
    lower.length < 3 ? undefined : known.find((candidate) => distance(lower, candidate.toLowerCase()) === 1);
  if (oneOff !== undefined) return oneOff;
  const extended = known.find((candidate) => isLongerForm(lower, candidate.toLowerCase()));
  if (extended !== undefined) return extended;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const longer = Math.max(word.length, best.length);
  const limit = Math.max(2, Math.floor(longer * 0.4));
  return bestDistance <= limit && bestDistance < longer ? best : undefined;
}

/** `; did you mean \`plugins\`?` when a known word is near, else the empty string. */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = closest(word, known);
  return near === undefined ? '' : `; did you mean \`${near}\`?`;
}
