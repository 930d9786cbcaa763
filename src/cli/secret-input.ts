// The client secret for `tessera login`, never from the command line (shell history, the process list): from
// TESSERA_CLIENT_SECRET, from standard input when it is piped, or typed at a prompt that does not echo it.
import { createInterface } from 'node:readline';

export async function readSecret(prompt: string): Promise<string> {
  if (process.env.TESSERA_CLIENT_SECRET) return process.env.TESSERA_CLIENT_SECRET;
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  process.stderr.write(prompt);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // What is typed is not written back to the terminal.
  (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => {};
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return answer.trim();
}
