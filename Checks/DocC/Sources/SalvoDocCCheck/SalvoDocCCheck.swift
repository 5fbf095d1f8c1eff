// Intentionally empty. A package's plugins only see the targets of the dependencies its own targets
// use, so this target uses Salvo and SalvoTesting to put them in front of swift-docc-plugin.
