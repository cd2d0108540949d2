//! Writers for attest documents: JSON, JSON Lines, brat standoff and the terminal report.
