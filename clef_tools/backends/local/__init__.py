"""What every local engine shares: model files resolved without a hub (folders, GGUF, the
embedded wheels), the dedicated torch thread. Private modules."""
