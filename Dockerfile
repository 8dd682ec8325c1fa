# syntax=docker/dockerfile:1
# LLM News Digest as a service: `digest serve` on port 8080, its data (PGlite, published site) in the /data volume.
#   docker build -t llm-news-digest .
#   docker run -p 8080:8080 -e DIGEST_SECRET="$(openssl rand -base64 48)" -v digest-data:/data llm-news-digest

FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY src ./src
# `npm ci` runs `prepare`, which compiles src/ into dist/ (esbuild: ES modules, dist/cli/main.js and its chunks).
RUN npm ci --no-audit --no-fund && test -f dist/cli/main.js

FROM node:26-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only, no install scripts (esbuild, which compiles a digest.config.ts on load, needs none:
# its binary comes in its platform package).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:26-slim AS runtime
# One volume: the embedded database in /data/db (unused when DATABASE_URL is set), the published site in /data/site.
# (The data folder must hold only the database, so the two are siblings.)
# While `digest serve` runs it shares /data/db with other commands through a Unix socket inside it (never a port):
# run them in the same container, e.g. `docker exec <container> node bin/digest.js list`.
# Node's compile cache (bin/digest.js) in the node user's home: the install itself is read-only to the process.
ENV NODE_ENV=production \
    DIGEST_DATA_DIR=/data/db \
    DIGEST_COMPILE_CACHE=/home/node/.cache/digest-compile-cache \
    PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
COPY sample ./sample
# The image's own files stay root-owned and read-only to the process; only /data is writable.
RUN mkdir -p /data/site && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/digest.js"]
CMD ["serve", "--host", "0.0.0.0", "--out", "/data/site"]
