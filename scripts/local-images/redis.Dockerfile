# Stand-in for redis:7-alpine where no image registry is reachable (scripts/build-local-images.sh).
# Debian 12's redis-server and redis-cli on the shared bookworm base; behaves like the official image:
# CMD redis-server in /data, the entrypoint drops to the redis user, protected mode off when no config file.
ARG BASE
FROM ${BASE}
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh && mkdir -p /data && chown redis:redis /data
LABEL org.opencontainers.image.description="local stand-in for redis:7-alpine (Debian 12 redis-server)"
WORKDIR /data
VOLUME /data
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
