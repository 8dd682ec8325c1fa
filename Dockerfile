# syntax=docker/dockerfile:1
# LLM News Digest as a service: `digest serve` on port 8080, data (PGlite, published site) in /data.
#   docker build -t llm-news-digest .
#   docker run -p 8080:8080 -e DIGEST_SECRET="$(openssl rand -base64 48)" -v digest-data:/data llm-news-digest

FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only (tsx, which runs the TypeScript sources, is one of them).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    DIGEST_DATA_DIR=/data \
    PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY bin ./bin
COPY src ./src
COPY sample ./sample
# The image's own files stay root-owned and read-only to the process; only /data is writable.
RUN mkdir -p /data/site && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/digest.js"]
CMD ["serve", "--host", "0.0.0.0", "--site", "/data/site"]
