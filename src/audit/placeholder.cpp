// replaced by the audit layer
