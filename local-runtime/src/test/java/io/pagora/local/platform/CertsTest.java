package io.pagora.local.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.pagora.kernel.tls.PemTls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The local certificates, made by the real openssl, read by the services' own PEM loader. */
class CertsTest {

    private final Path directory = TemporaryRepository.create().tls();
    private final Certs certs = new Certs(directory);

    @Test
    void the_ca_the_server_the_operator_the_monitor_and_each_bank_get_a_certificate_once() throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();

        assertThat(certs.ensure(List.of(1L, 10001111L)))
                .containsExactly("localhost", "operator", "monitor", "ispb-00000001", "ispb-10001111");
        assertThat(certs.ensure(List.of(1L))).as("a second run issues nothing").isEmpty();

        Path participants = directory.resolve("participants");
        PemTls.mutual(participants.resolve("ispb-10001111.crt"), participants.resolve("ispb-10001111.key"),
                directory.resolve("ca.crt"));
        PemTls.anonymous(directory.resolve("ca.crt"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(participants.resolve("operator.key"))))
                .isEqualTo("rw-------");
        assertThat(Exec.capture(List.of("openssl", "x509", "-in", directory.resolve("server.crt").toString(), "-noout",
                "-ext", "subjectAltName")).output()).contains("IP Address:127.0.0.1", "DNS:localhost");
        try (var leftovers = Files.list(participants)) {
            assertThat(leftovers.map(Path::toString)).noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    @Test
    void a_certificate_from_an_earlier_ca_is_issued_again() throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();
        certs.ensure(List.of());
        Files.delete(directory.resolve("ca.crt"));
        Files.delete(directory.resolve("ca.key"));

        assertThat(certs.ensure(List.of())).containsExactly("localhost", "operator", "monitor");
    }
}
