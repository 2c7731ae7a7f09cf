import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';

/**
 * No container engine runs on the development machines, so docker-compose.yml and the Dockerfile are
 * checked by reading them; where a compose binary exists, `docker compose config` validates the file too.
 */
describe('container files', () => {
  const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'));
  const dockerfile = fs.readFileSync('Dockerfile', 'utf8');

  it('compose: a durable Redis (append-only, a volume, a healthcheck)', () => {
    const redis = compose.services.redis;
    expect(redis.image).to.match(/^redis:7/);
    expect(redis.command.join(' ')).to.contain('--appendonly yes').and.contain('--appendfsync always');
    expect(redis.volumes).to.deep.equal(['redis-data:/data']);
    expect(compose.volumes).to.have.property('redis-data');
    expect(redis.healthcheck.test).to.include('redis-cli');
  });

  it('compose: the server built from the Dockerfile, pointed at redis, with a healthcheck', () => {
    const server = compose.services.server;
    expect(server.build).to.equal('.');
    expect(server.environment.REDIS_URL).to.equal('redis://redis:6379');
    expect(server.environment.HOST).to.equal('0.0.0.0');
    expect(server.ports).to.deep.equal(['8080:8080']);
    expect(server.depends_on.redis.condition).to.equal('service_healthy');
    expect(server.healthcheck.test.join(' ')).to.contain('/readyz');
  });

  it('Dockerfile: Node 24 image, runs the compiled entry point that the build produces', () => {
    expect(dockerfile).to.match(/^FROM node:24-bookworm-slim AS build$/m);
    expect(dockerfile).to.match(/^FROM node:24-bookworm-slim$/m);
    expect(dockerfile).to.contain('CMD ["node", "dist/server/src/main.js"]');
    expect(dockerfile).to.match(/^USER node$/m);
    const build = JSON.parse(fs.readFileSync('tsconfig.json', 'utf8')).compilerOptions;
    expect(build.outDir).to.equal('dist');
    expect(build.rootDir).to.equal('.');
    expect(fs.existsSync('server/src/main.ts')).to.equal(true);
  });

  it('docker compose config accepts the file (where a compose binary exists)', function () {
    const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (probe.status !== 0) this.skip(); // no compose plugin on this machine: the checks above stand
    execFileSync('docker', ['compose', 'config', '--quiet'], { stdio: 'pipe' });
  });
});
