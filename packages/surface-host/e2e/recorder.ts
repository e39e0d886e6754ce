/**
 * A local recording server for the hostile-Surface suite: everything a Surface could reach on the network
 * lands here and is counted. One HTTP server (requests, WebSocket upgrades, and every TCP connection it
 * accepts, also those that never send a request — a preconnect), three raw TCP listeners (TURN over TCP, or
 * any other port), and a UDP socket (STUN and TURN over UDP).
 */

import { createSocket, type Socket } from 'node:dgram';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';

export interface Traffic {
  /** TCP connections accepted on any listener (HTTP or raw), with or without data. */
  readonly connections: number;
  readonly httpRequests: number;
  readonly webSockets: number;
  readonly udpPackets: number;
  /** One line per thing that arrived, for the failure message. */
  readonly log: readonly string[];
}

export class Recorder {
  readonly log: string[] = [];
  #http!: Server;
  #tcp: TcpServer[] = [];
  #udp!: Socket;
  /** Open raw sockets, destroyed on close (a browser keeps a preconnected socket open). */
  readonly #sockets = new Set<import('node:net').Socket>();
  httpPort = 0;
  tcpPorts: number[] = [];
  udpPort = 0;

  static async start(): Promise<Recorder> {
    const recorder = new Recorder();
    await recorder.#listen();
    return recorder;
  }

  async #listen(): Promise<void> {
    this.#http = createHttpServer((request, response) => {
      this.log.push(`http ${request.method} ${request.url}`);
      // Answers any navigation with a page that opts in to every CSP (and any page may read it), /204 with No
      // Content, and /redirect?to=<url> with a redirect there.
      if (request.url?.startsWith('/204')) {
        response.writeHead(204);
        response.end();
        return;
      }
      if (request.url?.startsWith('/redirect?to=')) {
        const to = decodeURIComponent(request.url.slice('/redirect?to='.length));
        response.writeHead(302, { location: to, 'access-control-allow-origin': '*' });
        response.end();
        return;
      }
      response.writeHead(200, {
        'content-type': 'text/html',
        'allow-csp-from': '*',
        'access-control-allow-origin': '*',
      });
      response.end('<p>remote</p>');
    });
    this.#http.on('connection', (socket) => {
      this.log.push('tcp http');
      socket.on('error', () => {});
    });
    this.#http.on('upgrade', (request, socket) => {
      this.log.push(`ws ${request.url}`);
      socket.destroy();
    });
    this.httpPort = await listen(this.#http);
    for (let index = 0; index < 3; index++) {
      const server = createTcpServer((socket) => {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        this.log.push(`tcp raw${index}`);
        socket.on('data', (chunk) => this.log.push(`tcp raw${index} data ${chunk.length}`));
        socket.on('error', () => {});
      });
      this.#tcp.push(server);
      this.tcpPorts.push(await listen(server));
    }
    this.#udp = createSocket('udp4');
    this.#udp.on('message', (packet) => this.log.push(`udp ${packet.length}`));
    await new Promise<void>((resolve) => this.#udp.bind(0, '127.0.0.1', resolve));
    this.udpPort = this.#udp.address().port;
  }

  traffic(): Traffic {
    const count = (pattern: RegExp) => this.log.filter((line) => pattern.test(line)).length;
    return {
      connections: count(/^tcp (http|raw\d)$/),
      httpRequests: count(/^http /),
      webSockets: count(/^ws /),
      udpPackets: count(/^udp /),
      log: this.log.slice(),
    };
  }

  /** Placeholders an attack's source may use: {{HTTP}}, {{TCP0}}…{{TCP2}}, {{UDP}}. */
  fill(source: string): string {
    return source
      .replaceAll('{{HTTP}}', String(this.httpPort))
      .replaceAll('{{TCP0}}', String(this.tcpPorts[0]))
      .replaceAll('{{TCP1}}', String(this.tcpPorts[1]))
      .replaceAll('{{TCP2}}', String(this.tcpPorts[2]))
      .replaceAll('{{UDP}}', String(this.udpPort));
  }

  async close(): Promise<void> {
    this.#http.closeAllConnections();
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all([
      new Promise((resolve) => this.#http.close(resolve)),
      ...this.#tcp.map((server) => new Promise((resolve) => server.close(resolve))),
      new Promise<void>((resolve) => this.#udp.close(() => resolve())),
    ]);
  }
}

function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
