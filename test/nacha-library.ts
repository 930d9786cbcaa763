// An independent NACHA parser from npm (@ach/ach, CoffeeScript-era CommonJS): it reads our files into plain objects,
// so a test checks our writer against someone else's reading of the format.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

const require = createRequire(import.meta.url);
const AchParser = require('@ach/ach/lib/transforms/ach-parser.js') as new () => NodeJS.ReadWriteStream;

export function parseWithLibrary(text: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const parser = new AchParser();
    parser.on('data', resolve);
    parser.on('error', reject);
    Readable.from([text]).pipe(parser as unknown as NodeJS.WritableStream);
  });
}
