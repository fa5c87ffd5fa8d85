/**
 * Docker cannot run in every test environment, so the deployment files are checked by
 * reading them: the compose services and their wiring, the reverse proxy's configuration (nginx
 * is not run here), the Dockerfile, and that every variable they set or document is one
 * config/src/index.ts knows (and the reverse).
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '@app/config';
import { parse } from 'yaml';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/**
 * The variable names of the zod schema in config/src/index.ts (its `    NAME: z…` lines), with the
 * broker apps' of config/src/brokers.ts and the price feeds' of config/src/feeds.ts (`  NAME: z…`)
 * where the schema spreads them.
 */
function configVariables(): string[] {
  const spread = (file: string) => [...read(file).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
  const spreads: Record<string, string[]> = {
    brokerVariables: spread('config/src/brokers.ts'),
    feedVariables: spread('config/src/feeds.ts'),
  };
  const names = [
    ...read('config/src/index.ts').matchAll(
      /^ {4}(?:([A-Z][A-Z0-9_]*):|\.\.\.(brokerVariables|feedVariables),)/gm,
    ),
  ].flatMap((m) => (m[2] ? spreads[m[2]]! : [m[1]!]));
  if (names.length < 10) throw new Error(`found only ${names.length} variables in config/src/index.ts`);
  return names;
}

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

describe('infra: docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml')) as Compose;
  const { postgres, redis, server, streamer, proxy } = compose.services;

  it('has exactly postgres, redis, server, streamer and the proxy', () => {
    expect(Object.keys(compose.services)).to.have.members([
      'postgres',
      'redis',
      'server',
      'streamer',
      'proxy',
    ]);
    expect(postgres!.image).to.equal('postgres:16');
    expect(redis!.image).to.match(/^redis:7/);
  });

  it('checks the health of postgres, redis and the server', () => {
    expect(postgres!.healthcheck!.test!.join(' ')).to.contain('pg_isready');
    expect(redis!.healthcheck!.test).to.deep.equal(['CMD', 'redis-cli', 'ping']);
    const probe = server!.healthcheck!.test!;
    expect(probe.slice(0, 3)).to.deep.equal(['CMD', 'node', '-e']);
    expect(probe[3]).to.contain('fetch(').and.contain('/api/health');
    // The image's HEALTHCHECK is the server's; the streamer has no HTTP port to probe.
    expect(streamer!.healthcheck).to.deep.equal({ disable: true });
  });

  it('keeps data in named volumes', () => {
    expect(postgres!.volumes).to.include('pgdata:/var/lib/postgresql/data');
    for (const service of Object.values(compose.services)) {
      // A file of this repository mounted read-only (the proxy's configuration) is not data.
      for (const volume of (service.volumes ?? []).filter((v) => !v.startsWith('./'))) {
        expect(compose.volumes).to.have.property(volume.split(':')[0]!);
      }
    }
  });

  it('starts the server once postgres and redis are healthy, the streamer once redis is', () => {
    expect(server!.depends_on).to.deep.equal({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(streamer!.depends_on).to.deep.equal({ redis: { condition: 'service_healthy' } });
  });

  it('builds one image for the server and the streamer', () => {
    expect(server!.build).to.equal('.');
    expect(streamer!.image).to.equal(server!.image);
    expect(streamer!.command).to.deep.equal(['node', '--enable-source-maps', 'dist/streamer.js']);
  });

  it('publishes only the proxy, which reaches the server once it is healthy', () => {
    for (const [name, service] of Object.entries(compose.services))
      if (name !== 'proxy') expect(service.ports, `${name} publishes no port`).to.equal(undefined);
    expect(proxy!.ports).to.deep.equal(['3000:80']);
    expect(proxy!.image).to.match(/^nginx:/);
    expect(proxy!.volumes).to.deep.equal(['./deploy/nginx.conf:/etc/nginx/nginx.conf:ro']);
    expect(proxy!.depends_on).to.deep.equal({ server: { condition: 'service_healthy' } });
    expect(server!.expose).to.deep.equal(['3000']);
    // The server keys its limits on the address the proxy sets.
    expect(server!.environment!.TRUST_PROXY).to.equal('true');
  });

  it('configures the scaled mode: Postgres, Redis, production, Yahoo quotes', () => {
    const env = server!.environment!;
    expect(env.NODE_ENV).to.equal('production');
    expect(env.DATABASE_URL).to.match(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(env.REDIS_URL).to.equal('redis://redis:6379');
    expect(env.QUOTE_PROVIDER).to.equal('${QUOTE_PROVIDER:-yahoo}');
    expect(env.DEMO_MODE).to.equal('${DEMO_MODE:-false}');
    expect(env.DEMO_MODE_PUBLIC_OK).to.equal('${DEMO_MODE_PUBLIC_OK:-false}');
    expect(env.JWT_SECRET).to.match(/^\$\{JWT_SECRET:\?.+\}$/);
    expect(env.GOOGLE_CLIENT_ID).to.match(/^\$\{GOOGLE_CLIENT_ID/);
    expect(env.APP_URL).to.match(/^\$\{APP_URL/);
    expect(streamer!.environment).to.include.keys('REDIS_URL', 'QUOTE_PROVIDER', 'QUOTE_INTERVAL_MS');
    expect(streamer!.environment).not.to.have.any.keys('JWT_SECRET', 'DATABASE_URL', 'SENDGRID_API_KEY');
  });

  it('sets only variables that config knows', () => {
    const known = configVariables();
    for (const name of ['server', 'streamer'] as const) {
      const unknown = Object.keys(compose.services[name]!.environment ?? {}).filter(
        (k) => !known.includes(k),
      );
      expect(unknown, `${name} sets variables config/src/index.ts does not read`).to.deep.equal([]);
    }
  });
});

describe('infra: the reverse proxy (deploy/nginx.conf)', () => {
  const conf = read('deploy/nginx.conf').replace(/#.*$/gm, '');
  const directives = (name: string) =>
    [...conf.matchAll(new RegExp(`^\\s*${name}\\s+([^;]+);`, 'gm'))].map((m) => m[1]!);
  const block = (opening: string) => {
    const start = conf.indexOf(`${opening} {`);
    expect(start, opening).to.be.at.least(0);
    let depth = 0;
    for (let i = conf.indexOf('{', start); i < conf.length; i++) {
      if (conf[i] === '{') depth += 1;
      if (conf[i] === '}' && --depth === 0) return conf.slice(start, i + 1);
    }
    throw new Error(`${opening} is not closed`);
  };

  it('limits connections and requests per client address, answering 429', () => {
    expect(directives('limit_conn_zone')).to.deep.equal([
      '$binary_remote_addr zone=connections_per_address:10m',
    ]);
    expect(directives('limit_req_zone')[0]).to.match(
      /^\$binary_remote_addr zone=requests_per_address:10m rate=\d+r\/s$/,
    );
    const server = block('server');
    expect(server).to.match(/limit_conn connections_per_address \d+;/);
    expect(server).to.match(/limit_req zone=requests_per_address burst=\d+ nodelay;/);
    expect(directives('limit_conn_status')).to.deep.equal(['429']);
    expect(directives('limit_req_status')).to.deep.equal(['429']);
  });

  it('bounds slow clients and bodies as the server does', () => {
    expect(directives('client_header_timeout')).to.deep.equal(['10s']);
    expect(directives('client_body_timeout')).to.deep.equal(['30s']);
    // The server's largest body (server/src/app.ts BODY_LIMIT).
    expect(directives('client_max_body_size')).to.deep.equal(['2m']);
  });

  it("hands the server the client's address, and Socket.IO's upgrades, from one place", () => {
    const server = block('server');
    expect(server).to.contain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(server).to.contain('proxy_set_header Upgrade $http_upgrade;');
    expect(server).to.contain('proxy_set_header Connection $connection_upgrade;');
    // A location that set any header would drop the server's: none does.
    for (const location of server.match(/location [^{]+\{[^}]*\}/g)!)
      expect(location, location).not.to.contain('proxy_set_header');
    expect(directives('proxy_pass')).to.deep.equal(['http://app', 'http://app']);
    expect(block('upstream app')).to.contain('server server:3000;');
    // An idle socket outlives Socket.IO's ping interval and timeout (20 s + 20 s).
    expect(block('location /socket.io/')).to.contain('proxy_read_timeout 60s;');
  });
});

// test/infra/image-build.test.ts follows the Dockerfile's steps and starts what they build.
describe('infra: Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));

  it('builds in stages on the Node version package.json claims', () => {
    const major = /^>=(\d+)/.exec(JSON.parse(read('package.json')).engines.node)![1];
    expect(major).to.equal('22');
    const stages = instructions.filter((line) => line.startsWith('FROM '));
    expect(stages.length).to.be.at.least(3);
    expect(stages[0]).to.equal(`FROM node:${major}-bookworm-slim AS manifests`);
    expect(stages.at(-1)).to.equal(`FROM node:${major}-bookworm-slim AS runtime`);
    expect(dockerfile).to.contain('RUN npm ci --no-audit');
    expect(dockerfile).to.contain('RUN npm run build\n');
    expect(dockerfile).to.contain('RUN npm ci --omit=dev');
  });

  it('runs the server as a non-root user, with a health check', () => {
    const runtime = instructions.slice(instructions.findLastIndex((line) => line.startsWith('FROM ')));
    expect(runtime.find((line) => line.startsWith('USER '))).to.equal('USER node');
    expect(runtime.find((line) => line.startsWith('HEALTHCHECK '))).to.contain('/api/health');
    // The server's Node flags are npm start's (scripts/server-node-flags.mjs).
    const command = ['node', ...SERVER_NODE_FLAGS, '--enable-source-maps', 'dist/server.js'];
    expect(runtime.at(-1)).to.equal(`CMD ["${command.join('", "')}"]`);
  });

  it('keeps node_modules, data and secrets out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    expect(ignored).to.include.members(['**/node_modules', '**/dist', 'data', '.env', '.git']);
  });
});

describe('infra: every variable is documented', () => {
  const known = configVariables();

  it('.env.example lists each variable of config, and nothing else', () => {
    const example = read('.env.example');
    const listed = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect([...new Set(listed)]).to.have.members(known);
  });

  it('.env.example, as written, is a valid configuration', () => {
    const env = Object.fromEntries(
      [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [
        m[1]!,
        m[2]!.replace(/^"(.*)"$/, '$1'),
      ]),
    );
    const config = parseConfig(env);
    expect(config.PORT).to.equal(3000);
    expect(config.MAIL_FROM).to.equal('Portfolio Guard <alerts@portfolioguard.local>');
  });

  it('the README has a row for each variable', () => {
    const readme = read('README.md');
    const rows = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!);
    expect([...new Set(rows)]).to.have.members(known);
  });
});
