package io.pagora.payments.api.adapter.web;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import javax.imageio.ImageIO;

/** A BR Code drawn as a QR code (ZXing), as a PNG: black modules on white, a quiet zone of 4 modules. */
final class QrImages {

    /** Pixels per module: a 512-character code (version ≤ 20) stays under 500 pixels a side. */
    private static final int MODULE_PIXELS = 5;

    private QrImages() {}

    static byte[] png(String text) {
        BitMatrix matrix;
        try {
            // Medium error correction, as BCB's manual recommends for BR Codes.
            matrix = new QRCodeWriter()
                    .encode(
                            text,
                            BarcodeFormat.QR_CODE,
                            0,
                            0,
                            Map.of(
                                    EncodeHintType.ERROR_CORRECTION,
                                    ErrorCorrectionLevel.M,
                                    EncodeHintType.MARGIN,
                                    4,
                                    EncodeHintType.CHARACTER_SET,
                                    "UTF-8"));
        } catch (WriterException e) {
            throw new IllegalStateException("a BR Code of at most 512 characters fits a QR code", e);
        }
        int side = matrix.getWidth() * MODULE_PIXELS;
        BufferedImage image = new BufferedImage(side, side, BufferedImage.TYPE_BYTE_BINARY);
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                image.setRGB(x, y, matrix.get(x / MODULE_PIXELS, y / MODULE_PIXELS) ? 0x000000 : 0xFFFFFF);
            }
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream(8_192);
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return png.toByteArray();
    }
}
