import Testing

@testable import Features
