package io.pagora.payments.api.domain.directory;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import org.junit.jupiter.api.Test;

/**
 * BR Codes read and written: the worked example of BCB's BR Code manual (a static code for an EVP, "Fulano de Tal",
 * Brasília, no amount, CRC 1D3D) is read as the manual says and written back byte for byte; every defect a payer's
 * bank may meet has its own refusal.
 */
class BrCodeTest {

    /** The manual's example of a static code, as printed there. */
    static final String MANUAL_EXAMPLE = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000"
            + "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

    @Test
    void theCrcIsCcittFalse() {
        assertThat(Crc16.of("123456789"))
                .as("the CRC-16/CCITT-FALSE check value")
                .isEqualTo(0x29B1);
        assertThat(Crc16.hex(MANUAL_EXAMPLE.substring(0, MANUAL_EXAMPLE.length() - 4)))
                .isEqualTo("1D3D");
    }

    @Test
    void theManualsExampleHasAKeyNotAVersion4Uuid() {
        // Its EVP "123e4567-e12b-12d1-..." is a version 1 UUID: no directory made it, so it is no key the switch pays.
        BrCode.Read read = BrCode.read(MANUAL_EXAMPLE, "brCode");
        assertThat(read).isInstanceOf(BrCode.Read.Bad.class);
        assertThat(((BrCode.Read.Bad) read).problem().type()).isEqualTo(RefusalReason.BR_CODE_INVALID_KEY);
    }

    @Test
    void theManualsLayoutWithAVersion4KeyIsReadAndWrittenBackByteForByte() {
        String payload = "00020126580014br.gov.bcb.pix0136123e4567-e12b-42d1-a456-426655440000"
                + "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304";
        String text = payload + Crc16.hex(payload);

        BrCode code = code(text);

        assertThat(code.key()).isEqualTo(new PixKey(KeyType.EVP, "123e4567-e12b-42d1-a456-426655440000"));
        assertThat(code.amountCentavos()).isNull();
        assertThat(code.merchantName()).isEqualTo("Fulano de Tal");
        assertThat(code.merchantCity()).isEqualTo("BRASILIA");
        assertThat(code.txid()).isEqualTo(BrCode.NO_TXID);
        assertThat(code.text()).isEqualTo(text);
    }

    @Test
    void aCodeWithAnAmountATxidAndADescriptionRoundTrips() {
        BrCode code = new BrCode(
                new PixKey(KeyType.EMAIL, "loja@example.com"),
                12_345L,
                "Padaria Pao Quente",
                "SAO PAULO",
                "Pedido42",
                "Pao de queijo");
        String text = code.text();

        assertThat(text)
                .startsWith("000201")
                .contains("0014br.gov.bcb.pix")
                .contains("5406123.45")
                .contains("0508Pedido42");
        assertThat(code(text)).isEqualTo(code);
        assertThat(BrCode.amountText(5)).isEqualTo("0.05");
    }

    @Test
    void eachDefectHasItsOwnRefusal() {
        String good = new BrCode(new PixKey(KeyType.PHONE, "+5561912345678"), 1_000L, "Fulano", "BRASILIA", "***", null)
                .text();
        String payload = good.substring(0, good.length() - 4);

        assertThat(problem(payload + (good.endsWith("0000") ? "0001" : "0000")))
                .isEqualTo(RefusalReason.BR_CODE_CRC_MISMATCH);
        assertThat(problem("hello")).isEqualTo(RefusalReason.BR_CODE_MALFORMED);
        String notPix = payload.replace("br.gov.bcb.pix", "br.gov.bcb.pox");
        assertThat(problem(withCrc(notPix))).isEqualTo(RefusalReason.BR_CODE_NOT_PIX);
        String badKey = payload.replace("+5561912345678", "+0561912345678");
        assertThat(problem(withCrc(badKey))).isEqualTo(RefusalReason.BR_CODE_INVALID_KEY);
        String broken = payload.replace("5802BR", "5803BR");
        assertThat(problem(withCrc(broken))).isEqualTo(RefusalReason.BR_CODE_MALFORMED);
        String url = "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25";
        String account = "0014br.gov.bcb.pix25" + url.length() + url;
        String dynamic = "000201010212" + "26" + account.length() + account
                + "5204000053039865802BR5903Pix6008BRASILIA62070503***6304";
        assertThat(problem(withCrc(dynamic))).isEqualTo(RefusalReason.BR_CODE_UNSUPPORTED);
    }

    @Test
    void aPaymentOfACodeWithAnAmountPaysThatAmount() {
        PixKey key = new PixKey(KeyType.PHONE, "+5561912345678");
        BrCode code = new BrCode(key, 1_000L, "Fulano", "BRASILIA", "***", null);
        String endToEndId = "E00000031202611291200abcdefghijk";

        KeyedPayment right = new KeyedPayment(Id128.of(1), key, code, 1_000, "BRL", null, endToEndId, "brCode");
        KeyedPayment wrong = new KeyedPayment(Id128.of(1), key, code, 999, "BRL", null, endToEndId, "brCode");

        assertThat(right.check()).isEmpty();
        Refusal refusal = wrong.check().orElseThrow();
        assertThat(refusal.type()).isEqualTo(RefusalReason.BR_CODE_AMOUNT_MISMATCH);
        assertThat(refusal.numbers()).containsEntry("brCodeAmountCentavos", 1_000L);
    }

    @Test
    void accentsAreDroppedAndUnfitFieldsAreRefusedWhenMakingACode() {
        PixKey key = new PixKey(KeyType.PHONE, "+5561912345678");
        assertThat(BrCode.plain(" São Paulo ")).isEqualTo("Sao Paulo");
        assertThat(BrCode.problem(key, null, "A".repeat(26), "X", null, null).field())
                .isEqualTo("merchantName");
        assertThat(BrCode.problem(key, null, "A", "C".repeat(16), null, null).field())
                .isEqualTo("merchantCity");
        assertThat(BrCode.problem(key, null, "A", "C", "has space", null).field())
                .isEqualTo("txid");
        assertThat(BrCode.problem(key, 0L, "A", "C", null, null).type()).isEqualTo(RefusalReason.INVALID_AMOUNT);
        assertThat(BrCode.problem(key, null, "A", "C", null, "x".repeat(80)).field())
                .isEqualTo("description");
        assertThat(BrCode.problem(key, null, "A", "C", "abc123", "ok")).isNull();
    }

    private static String withCrc(String payload) {
        return payload + Crc16.hex(payload);
    }

    private static BrCode code(String text) {
        BrCode.Read read = BrCode.read(text, "brCode");
        assertThat(read).as("%s", read).isInstanceOf(BrCode.Read.Code.class);
        return ((BrCode.Read.Code) read).code();
    }

    private static RefusalReason problem(String text) {
        BrCode.Read read = BrCode.read(text, "brCode");
        assertThat(read).as(text).isInstanceOf(BrCode.Read.Bad.class);
        Refusal problem = ((BrCode.Read.Bad) read).problem();
        assertThat(problem.field()).isEqualTo("brCode");
        return problem.type();
    }
}
