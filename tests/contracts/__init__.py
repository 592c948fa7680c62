"""Contract test classes, one per Protocol; backend test classes inherit them."""
