# syntax=docker/dockerfile:1
# Multi-stage build of the whole system: the SPA and the console (ADR 0047) are built once, the
# service runs from source with tsx (ADR 0001), as a non-root user, on Node 24, the current LTS
# (ADR 0027; CI runs the unit suites on it too).

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY apps/console/package.json apps/console/
RUN npm ci

FROM deps AS build
COPY . .
# Then only what runs: no bundler, test runner or linter in the image (node_modules 585 → 154 MB).
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
# All interfaces inside the container (the service's own default is 127.0.0.1, ADR 0027).
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/package.json /app/tsconfig.base.json ./
COPY --from=build /app/packages packages
COPY --from=build /app/apps/api apps/api
COPY --from=build /app/apps/web/dist apps/web/dist
# The page renderer the service imports (ADR 0024); React and the router come from node_modules.
COPY --from=build /app/apps/web/dist-server apps/web/dist-server
COPY --from=build /app/apps/web/package.json apps/web/
# The back-office console (ADR 0047), served under /console.
COPY --from=build /app/apps/console/dist apps/console/dist
# DATA_DIR: the download center's installers and uploads being checked (ADR 0046), unless S3_BUCKET.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "apps/api/src/server.ts"]
