# shellcheck shell=bash
# jaeger: a real OTLP receiver for `dbprobe run --otlp` / `dbprobe watch --otlp`. Jaeger v2 is an
# OpenTelemetry Collector build: one process takes OTLP over HTTP and keeps the traces in memory
# (read back at /api/traces on its query port), and a metrics pipeline hands the OTLP metrics to the
# collector's Prometheus exporter (read back by scraping it), with their OpenTelemetry names and
# attributes untranslated. Everything binds to 127.0.0.1 (Jaeger's own defaults listen on every
# interface), and its own telemetry is off, so it takes no port beyond those below.
JAEGER_DIR="$TB_DIR/jaeger"
JAEGER_BIN=""

jaeger_packages() { command -v curl >/dev/null 2>&1 || echo curl; }
jaeger_build() { JAEGER_BIN=$(bash "$HERE/build-go.sh" jaeger); }

jaeger_running() { pid_alive "$JAEGER_DIR/jaeger.pid" jaeger; }

jaeger_config() {
  cat <<EOF
# written by scripts/testbed/svc-jaeger.sh
service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
    metrics:
      receivers: [otlp]
      exporters: [prometheus]
  telemetry:
    metrics:
      level: none
    logs:
      level: info
extensions:
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 20000
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: $TB_HOST:$JAEGER_QUERY_PORT
    grpc:
      endpoint: $TB_HOST:$JAEGER_QUERY_GRPC_PORT
  healthcheckv2:
    use_v2: true
    http:
      endpoint: $TB_HOST:$JAEGER_HEALTH_PORT
receivers:
  otlp:
    protocols:
      http:
        endpoint: $TB_HOST:$JAEGER_OTLP_PORT
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
  prometheus:
    endpoint: $TB_HOST:$JAEGER_METRICS_PORT
    translation_strategy: NoTranslation
    metric_expiration: 30m
EOF
}

jaeger_up() {
  mkdir -p "$JAEGER_DIR"
  local config="$JAEGER_DIR/config.yaml"
  jaeger_config >"$config.tmp"
  mv "$config.tmp" "$config"
  local cfg
  cfg="bin=$JAEGER_BIN config=$(sha256sum "$config" | cut -c1-16)"
  if jaeger_running && cfg_matches "$JAEGER_DIR" "$cfg"; then
    log "jaeger: reusing running receiver (OTLP http on port $JAEGER_OTLP_PORT)"
  else
    jaeger_running && jaeger_down
    assert_port_free jaeger "$JAEGER_OTLP_PORT" DBPROBE_TESTBED_JAEGER_OTLP_PORT
    assert_port_free jaeger "$JAEGER_QUERY_PORT" DBPROBE_TESTBED_JAEGER_QUERY_PORT
    assert_port_free jaeger "$JAEGER_METRICS_PORT" DBPROBE_TESTBED_JAEGER_METRICS_PORT
    log "jaeger: starting OTLP http on $TB_HOST:$JAEGER_OTLP_PORT, query on $JAEGER_QUERY_PORT, metrics on $JAEGER_METRICS_PORT"
    start_daemon "$JAEGER_DIR/jaeger.pid" "$JAEGER_DIR/jaeger.log" root "$JAEGER_BIN" --config "$config" ||
      die_with_log "$JAEGER_DIR/jaeger.log" "jaeger: failed to start"
    printf '%s\n' "$cfg" >"$JAEGER_DIR/config"
  fi
  wait_alive jaeger "$JAEGER_DIR/jaeger.log" "$JAEGER_DIR/jaeger.pid" jaeger \
    curl -fsS --max-time 2 "http://$TB_HOST:$JAEGER_HEALTH_PORT/status"
  wait_for_port jaeger "$JAEGER_DIR/jaeger.log" "$JAEGER_OTLP_PORT"
  wait_for_port jaeger "$JAEGER_DIR/jaeger.log" "$JAEGER_QUERY_PORT"
  write_env_lines "$JAEGER_DIR" \
    "$(env_line DBPROBE_TEST_OTLP_URL "http://$TB_HOST:$JAEGER_OTLP_PORT")" \
    "$(env_line DBPROBE_TEST_JAEGER_QUERY_URL "http://$TB_HOST:$JAEGER_QUERY_PORT")" \
    "$(env_line DBPROBE_TEST_OTLP_METRICS_SCRAPE_URL "http://$TB_HOST:$JAEGER_METRICS_PORT/metrics")"
}

jaeger_down() {
  jaeger_running || return 0
  stop_pidfile "$JAEGER_DIR/jaeger.pid" jaeger jaeger TERM
}
