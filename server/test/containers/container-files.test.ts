import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';

/**
 * docker-compose.yml and the Dockerfiles read as files (the stack itself runs in `make test-containers`);
 * where a compose binary exists, its `config` validates the file too.
 */
describe('container files', () => {
  const compose = parse(fs.readFileSync('docker-compose.yml', 'utf8'));
  const dockerfile = fs.readFileSync('Dockerfile', 'utf8');
  const prebuilt = fs.readFileSync('Dockerfile.prebuilt', 'utf8');

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
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own variable syntax
    expect(server.build).to.deep.equal({ context: '${SERVER_BUILD_CONTEXT:-.}' }); // the repository by default
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

  it('Dockerfile.prebuilt: the same final image as the Dockerfile, from a context prepared on the host', () => {
    const finalStage = (text: string) =>
      text
        .slice(text.lastIndexOf('\nFROM '))
        .split('\n')
        .filter((line) =>
          /^(FROM|ENV|WORKDIR|USER|EXPOSE|HEALTHCHECK| {2}CMD|CMD|ARG|LABEL| {6}\S)/.test(line),
        );
    expect(finalStage(prebuilt)).to.deep.equal(finalStage(dockerfile));
    expect(prebuilt).to.not.match(/^RUN /m); // nothing runs inside the build: no network needed
    expect(prebuilt).to.match(/^COPY node_modules \.\/node_modules$/m);
    expect(prebuilt).to.match(/^COPY dist \.\/dist$/m);
  });

  it('images ready to publish: OCI labels (version, source, commit, spec revision) from the build arguments, a non-root user', () => {
    const files: Array<[string, string]> = [
      ['Dockerfile', dockerfile],
      ['Dockerfile.prebuilt', prebuilt],
      ['conformance/Dockerfile', fs.readFileSync('conformance/Dockerfile', 'utf8')],
    ];
    for (const [file, text] of files) {
      const final = text.slice(text.lastIndexOf('\nFROM '));
      for (const arg of ['VERSION', 'SOURCE', 'REVISION', 'SPEC_REVISION'])
        expect(final, file).to.match(new RegExp(`^ARG ${arg}=unknown$`, 'm'));
      for (const label of ['version="$VERSION"', 'source="$SOURCE"', 'revision="$REVISION"'])
        expect(final, file).to.contain(`org.opencontainers.image.${label}`);
      expect(final, file).to.contain('io.user-service.spec.revision="$SPEC_REVISION"');
      expect(final, file).to.match(/^USER node$/m);
    }
    const suite = JSON.parse(fs.readFileSync('conformance/package.json', 'utf8'));
    const args = execFileSync('scripts/image-build-args.sh', ['conformance'], { encoding: 'utf8' });
    expect(args).to.contain(
      `--build-arg VERSION=${suite.version} --build-arg SPEC_REVISION=${suite.specRevision} `,
    );
  });

  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    it(`\`${command.join(' ')} config\` accepts the file (where that compose exists)`, function () {
      const [bin, ...args] = command as [string, ...string[]];
      const probe = spawnSync(bin, [...args, 'version'], { encoding: 'utf8' });
      if (probe.status !== 0) this.skip(); // not on this machine: the checks above stand
      execFileSync(bin, [...args, 'config', '--quiet'], { stdio: 'pipe' });
    });
  }
});
