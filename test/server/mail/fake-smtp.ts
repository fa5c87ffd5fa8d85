/** A minimal SMTP server for the SMTP mailer's tests: RCPT answers a scripted reply code. */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface FakeSmtp {
  url: string;
  /** Raw DATA sections received (one per accepted message). */
  messages: string[];
  /** Connections opened so far, and the most open at one time. */
  connections: { opened: number; mostAtOnce: number };
  /** The reply to the next RCPT TO commands, in order (250 once it runs out). */
  scriptRcpt(...codes: number[]): void;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: string[] = [];
  const rcptCodes: number[] = [];
  const sockets = new Set<Socket>();
  const connections = { opened: 0, mostAtOnce: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    connections.opened++;
    connections.mostAtOnce = Math.max(connections.mostAtOnce, sockets.size);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    const say = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let inData = false;
    say('220 fake.smtp ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          say('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-fake.smtp\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO' || verb === 'MAIL' || verb === 'RSET' || verb === 'NOOP') say('250 OK');
        else if (verb === 'RCPT') {
          const code = rcptCodes.shift() ?? 250;
          say(code === 250 ? '250 OK' : `${code} scripted refusal`);
        } else if (verb === 'DATA') {
          inData = true;
          say('354 go ahead');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('502 not implemented');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    connections,
    scriptRcpt: (...codes) => void rcptCodes.push(...codes),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
