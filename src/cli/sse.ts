// Server-Sent Events, as the WHATWG specification parses them: fields per line, a blank line ends a message, lines
// starting with a colon are comments. Fed text as it arrives, in any chunks.

export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  /** The last `id` field seen, with or without a message (the position to resume from). */
  get lastEventId(): string | undefined {
    return this.id;
  }

  /** The messages completed by this chunk. */
  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const done: SseMessage[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (this.data.length > 0)
          done.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.data = [];
        this.event = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id' && !value.includes('\0')) this.id = value;
    }
    return done;
  }
}
