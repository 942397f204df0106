import Cardio
import Testing
import Foundation

@Suite("HRV probe")
struct HRVAgreementProbe {
    @Test func probe() throws {
        for name in HRVFixtures.seriesNames {
            let c = try HRVFixtures.load(name)
            let td = HRVTimeDomain(c.series).metrics
            let ref = c.reference("time")
            for n in HRVTimeDomain.metricNames { print(name, n, td[n]!, ref[n] ?? .nan, HRVFixtures.relativeError(td[n]!, ref[n] ?? .nan)) }
            print(name, "TINN TF", c.reference("extra")["TINN_task_force"]!)
            let fd = try HRVFrequencyDomain(c.series).metrics
            let fr = c.reference("frequency_welch")
            for n in HRVFrequencyDomain.metricNames { print(name, n, fd[n]!, fr[n] ?? .nan, HRVFixtures.relativeError(fd[n]!, fr[n] ?? .nan)) }
            let ls = try HRVFrequencyDomain(c.series, options: .init(method: .lombScargle)).metrics
            let lr = c.reference("frequency_lomb_exact")
            let fbar = (c.json["lomb_grid"] as! [String: Any])["mean_sample_rate"] as! Double
            for n in HRVFrequencyDomain.metricNames {
                let k = ["LFHF", "LFn", "HFn"].contains(n) ? 1 : (n == "LnHF" ? 1 : fbar / 2)
                let v = n == "LnHF" ? exp(ls[n]!) * fbar / 2 : ls[n]! * k
                let r = n == "LnHF" ? exp(lr[n] ?? .nan) : lr[n] ?? .nan
                print(name, "LS", n, v, r, HRVFixtures.relativeError(v, r), c.reference("frequency_lomb")[n] ?? .nan)
            }
            let nl = try HRVNonlinear(c.series).metrics
            let nr = c.reference("nonlinear")
            for n in HRVNonlinear.metricNames { print(name, n, nl[n]!, nr[n] ?? .nan, HRVFixtures.relativeError(nl[n]!, nr[n] ?? .nan)) }
        }
    }
}
