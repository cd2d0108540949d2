//! Averaged perceptron models, features and model files for attest's learned stages.
