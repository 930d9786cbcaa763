import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../platform/paths.js';

export interface Asset {
  /** Content-addressed URL path: a changed file gets a new URL, so browsers may cache each one for a year. */
  url: string;
  body: Buffer;
  contentType: string;
  etag: string;
}

const ASSET_DIR = () => path.join(projectRoot(), 'src', 'modules', 'checkout', 'assets');

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** The payer-facing static files (read once at start; they are small and served from memory). */
export function loadAssets(prefix: string): Map<string, Asset> {
  const dir = ASSET_DIR();
  const assets = new Map<string, Asset>();
  for (const name of ['checkout.css', 'checkout.js', 'frame.js']) {
    const body = readFileSync(path.join(dir, name));
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const ext = path.extname(name);
    const file = `${path.basename(name, ext)}.${hash}${ext}`;
    assets.set(name, { url: `${prefix}/${file}`, body, contentType: TYPES[ext]!, etag: `"${hash}"` });
  }
  return assets;
}

/** The elements loader keeps a stable URL (merchants embed it); it is revalidated, not cached for a year. */
export function loadElementsScript(): Buffer {
  return readFileSync(path.join(ASSET_DIR(), 'elements.js'));
}
