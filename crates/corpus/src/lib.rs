//! Reading PolNeAR-format corpora and scoring attest against them.
