"""email: building a message with headers and attachments, then parsing it back."""
import email
from email import policy
from email.message import EmailMessage
from email.utils import formataddr, parseaddr

msg = EmailMessage()
msg["From"] = formataddr(("Build Bot", "bot@example.com"))
msg["To"] = "ada@example.com, brian@example.net"
msg["Subject"] = "Nightly report: 3 failures"
msg["Date"] = "Fri, 01 Mar 2024 08:00:00 +0000"
msg["Message-ID"] = "<report-2024-03-01@example.com>"
msg.set_content("Hello,\n\n3 tests failed tonight.\n")
msg.add_attachment(open("data/sales.csv", "rb").read(), maintype="text", subtype="csv", filename="sales.csv")
raw = msg.as_bytes(policy=policy.SMTP)
print(raw.count(b"\r\n") > 10, msg.is_multipart(), msg.get_content_type())
parsed = email.message_from_bytes(raw, policy=policy.default)
print(parsed["Subject"], parsed["From"], parseaddr(parsed["From"]))
print([a.addr_spec for a in parsed["To"].addresses])
for part in parsed.iter_parts():
    print(part.get_content_type(), part.get_filename(), len(part.get_content()))
body = parsed.get_body(preferencelist=("plain",))
print(repr(body.get_content()))
att = next(parsed.iter_attachments())
print(att.get_content().splitlines()[0] if isinstance(att.get_content(), str) else att.get_content()[:20])
