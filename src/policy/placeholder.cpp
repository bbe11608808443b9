// replaced by the policy layer
