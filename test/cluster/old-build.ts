// Another commit's build of Tessera, for the rolling-upgrade run: a detached git worktree at the commit, sharing this
// checkout's node_modules, bundled by its own build script. Its nodes discover its own migrations (in the worktree).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OldBuild {
  commit: string;
  /** Its `bin/tessera.js`. */
  bin: string;
  remove(): void;
}

export function buildCommit(ref: string, root = process.cwd()): OldBuild {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: root })
    .toString()
    .trim();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-upgrade-from-'));
  rmSync(dir, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: root, stdio: 'ignore' });
  const remove = () => {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' });
  };
  try {
    // The previous release's dependencies are this one's or a subset (a release that drops a package it still
    // imports would show here as a node that does not start).
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['scripts/build.mjs', '--force'], { cwd: dir, stdio: 'inherit' });
  } catch (error) {
    remove();
    throw error;
  }
  return { commit, bin: path.join(dir, 'bin', 'tessera.js'), remove };
}
