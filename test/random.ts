// Seeded choices for the tests that draw at random (the cluster test's load and faults, the fuzz test's requests):
// one seed replays the same run.

export type Random = () => number;

/** A small, fast, seedable generator (mulberry32): one seed replays the same choices. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
