# The reference server in a container. `docker compose up` runs it with a Redis beside it.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY server/src server/src
RUN npx tsc -p tsconfig.build.json

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# OCI labels, last so that a new commit rebuilds no layer above; the values: scripts/image-build-args.sh
# (docs/containers.md, "Publishing the images").
ARG VERSION=unknown
ARG SPEC_REVISION=unknown
ARG SOURCE=unknown
ARG REVISION=unknown
LABEL org.opencontainers.image.title="user-service" \
      org.opencontainers.image.description="The reference server of the User Management HTTP service (docs/SPEC.md)" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.source="$SOURCE" \
      org.opencontainers.image.revision="$REVISION" \
      io.user-service.spec.revision="$SPEC_REVISION"
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/readyz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server/src/main.js"]
