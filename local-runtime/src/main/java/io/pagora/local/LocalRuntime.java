package io.pagora.local;

import io.pagora.local.bench.Bench;
import io.pagora.local.bench.BenchHtml;
import io.pagora.local.chaos.ChaosCheck;
import io.pagora.local.chaos.PoisonRecords;
import io.pagora.local.chaos.WrongRowPlant;
import io.pagora.local.demo.AwaitFinal;
import io.pagora.local.demo.DemoReport;
import io.pagora.local.demo.Verify;
import io.pagora.local.demo.Walkthrough;
import io.pagora.local.load.Seed;
import io.pagora.local.measure.CpuSnapshot;
import io.pagora.local.servers.LocalKafka;
import io.pagora.local.servers.LocalPostgres;
import java.util.Arrays;

/**
 * The single entry point of {@code local-runtime.jar}: its first argument picks the tool, so one
 * executable jar serves {@code infra/local/pagora} for every tool.
 *
 * <pre>
 *   java -jar local-runtime.jar kafka    --data-dir=var/kafka [--port=9092] [--controller-port=9093]
 *   java -jar local-runtime.jar postgres --data-dir=var/postgres-embedded [--port=5432]
 *   java -jar local-runtime.jar seed     --out=var/demo/accounts.tsv [see Seed]: banks and customers through payment-api
 *   java -jar local-runtime.jar await-final --accepted=... [see AwaitFinal]: until every accepted payment is final
 *   java -jar local-runtime.jar report   --accounts=... --accepted=... --k6-summary=... [see DemoReport]
 *   java -jar local-runtime.jar bench    --accounts=... --out-dir=... --components=name=pid,... [see Bench]
 *   java -jar local-runtime.jar verify   --accounts=... [--accepted=...] [see Verify]: the report's checks, live
 *   java -jar local-runtime.jar chaos-check --scenario=... [see ChaosCheck]   one chaos scenario's verdict
 *   java -jar local-runtime.jar chaos-plant --out=... [see WrongRowPlant]  a wrong read-model row (kafka-outage)
 *   java -jar local-runtime.jar poison   [--bootstrap-servers=127.0.0.1:9092]  malformed records into every topic
 *   java -jar local-runtime.jar launcher demo|bench|chaos|up|down|... [see launcher.Launcher]: infra/local/pagora's commands
 *   java -jar local-runtime.jar walkthrough [--root=.] [--files=README.md,k6/README.md] [see Walkthrough]
 *   java -jar local-runtime.jar med-scenario --ispbs=... [see MedScenario]       the demo's traced fraud report
 * </pre>
 */
public final class LocalRuntime {

    private LocalRuntime() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage();
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "kafka" -> LocalKafka.main(rest);
            case "postgres" -> LocalPostgres.main(rest);
            case "seed" -> Seed.main(rest);
            case "send-degraded" -> io.pagora.local.load.DegradedSender.main(rest);
            case "await-final" -> AwaitFinal.main(rest);
            case "report" -> DemoReport.main(rest);
            case "bench" -> Bench.main(rest);
            case "bench-compare" -> BenchHtml.main(rest);
            case "cpu" -> CpuSnapshot.main(rest);
            case "verify" -> Verify.main(rest);
            case "chaos-check" -> ChaosCheck.main(rest);
            case "poison" -> PoisonRecords.main(rest);
            case "chaos-plant" -> WrongRowPlant.main(rest);
            case "walkthrough" -> Walkthrough.main(rest);
            case "med-scenario" -> io.pagora.local.demo.MedScenario.main(rest);
            case "launcher" -> io.pagora.local.launcher.Launcher.main(rest);
            default -> {
                usage();
                System.exit(2);
            }
        }
    }

    private static void usage() {
        System.err.println(
                "usage: java -jar local-runtime.jar kafka|postgres|seed|send-degraded|await-final|report|bench|bench-compare|cpu|verify|chaos-check|chaos-plant|poison|walkthrough|med-scenario|launcher [--option=value ...]");
    }
}
