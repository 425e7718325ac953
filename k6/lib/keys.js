// The PIX keys of the seeded customers, as local-runtime's seeding registers them (io.pagora.local.load.DemoKeys,
// held to this file by DemoKeysTest): each customer's e-mail key is made from its account id, its holder's CPF from
// the account id's last 8 hex digits, and that CPF is also the customer's PI-PayerId when it pays. A static BR Code of
// a key is built here as a merchant's printed code would be (docs/directory.md), CRC16-CCITT included.

/** The e-mail key seeding registered for a customer account. */
export function keyOf(accountId) {
  return `c${accountId.toLowerCase()}@pagora.example`;
}

/** The holder's CPF of a seeded customer account: 11 digits with valid check digits. */
export function cpfOf(accountId) {
  const n = parseInt(accountId.substring(24), 16);
  for (let base = 100000000 + (n % 900000000); ; base = base === 999999999 ? 100000000 : base + 1) {
    const cpf = withCheckDigits(String(base));
    if (!/^(\d)\1{10}$/.test(cpf)) {
      return cpf;
    }
  }
}

function withCheckDigits(nine) {
  let digits = nine;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) {
      sum += Number(digits[i]) * (length + 1 - i);
    }
    const rest = sum % 11;
    digits += String(rest < 2 ? 0 : 11 - rest);
  }
  return digits;
}

/** A static BR Code for `key`, fixing `amountCentavos`, as docs/directory.md lays it out. */
export function brCodeOf(key, amountCentavos, txid) {
  const account = field('00', 'br.gov.bcb.pix') + field('01', key);
  const amount = `${Math.floor(amountCentavos / 100)}.${String(amountCentavos % 100).padStart(2, '0')}`;
  const payload = field('00', '01') + field('26', account) + field('52', '0000') + field('53', '986')
    + field('54', amount) + field('58', 'BR') + field('59', 'Cliente Pagora') + field('60', 'Sao Paulo')
    + field('62', field('05', txid)) + '6304';
  return payload + crc16(payload);
}

function field(id, value) {
  return id + String(value.length).padStart(2, '0') + value;
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) over ASCII text, as four upper-case hex digits. */
export function crc16(text) {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
