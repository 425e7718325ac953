# The image of one Pagora service: payment-api, clearing-service or reporting-service. It only packages the
# jar, so build that first:
#   ./mvnw -B -DskipTests package
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=payment-api --build-arg PORT=8080 \
#       -t pagora/payment-api .          (docker-compose.yml at the repository root does this for all three)
# The build context is the repository root; .dockerignore sends only the services' jars.
# Configuration comes from the environment (Spring relaxed binding), e.g. SPRING_DATASOURCE_URL,
# SPRING_KAFKA_BOOTSTRAP_SERVERS, PAGORA_LEDGER_BACKEND, PAGORA_LEDGER_TIGERBEETLE_ADDRESSES,
# PAGORA_CLEARING_PENDING_TIMEOUT.
FROM eclipse-temurin:25-jre
ARG SERVICE
ARG PORT
RUN test -n "$SERVICE" && test -n "$PORT" && useradd --system --uid 10001 --no-create-home pagora
WORKDIR /app
COPY ${SERVICE}/target/${SERVICE}.jar /app/service.jar
USER pagora
EXPOSE ${PORT}
# The TigerBeetle client is native code (JNI): allow it explicitly rather than with a warning.
ENTRYPOINT ["java", "--enable-native-access=ALL-UNNAMED", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/service.jar"]
