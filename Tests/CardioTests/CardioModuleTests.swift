import Cardio
import Testing

@Suite("Cardio module")
struct CardioModuleTests {
    @Test("the algorithm version is set")
    func version() { #expect(Cardio.algorithmVersion >= 1) }
}
