"""The audit log of the gate's verdicts (who decided what about which call, and why)."""

from clef_tools.audit._masking import MASK, args_digest, masked, preview
from clef_tools.audit._sqlite import AuditLog, AuditRow

__all__ = ["MASK", "AuditLog", "AuditRow", "args_digest", "masked", "preview"]
