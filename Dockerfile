# The dbprobe runner as a container: `npm ci && npm run build` first, then `docker build -t dbprobe-runner .`
# Run: docker run -e DBPROBE_TOKEN=... -e NEON_URL=... -p 8787:8787 dbprobe-runner
FROM node:20-slim
WORKDIR /app
COPY package.json package-lock.json ./
# Only the drivers' npm clients are needed at run time; the runner code is one bundled file.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY dist/runner.js dist/runner.js
ENV HOST=0.0.0.0 PORT=8787 NODE_ENV=production
EXPOSE 8787
USER node
CMD ["node", "dist/runner.js"]
